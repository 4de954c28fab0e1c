import { createContext } from "react-router";
import type { Logger } from "pino";
import type { Auth } from "./auth";
import type { Db, Engine, QueryObservers } from "./db/connect";
import type { MemberRole } from "~/lib/domain-values";
import type { Env } from "./env";
import type { Mailer } from "./mail/mailer";
import type { MediaStore } from "./media/media-store";
import type { LiveBus } from "./live/live-bus";

/** What the whole process shares: built once at start and handed to every request (STYLE.md). */
export interface AppServices {
  db: Db;
  engine: Engine;
  auth: Auth;
  env: Env;
  logger: Logger;
  mailer: Mailer;
  /** Uploaded files (ADR 0020). */
  media: MediaStore;
  /** Live updates to open pages (issue 28): bells and new posts, published after a commit. */
  live: LiveBus;
  /** The database's statements as they run, for the page-cache audit (ADR 0051); only while it is on. */
  queries?: QueryObservers;
}

/** What belongs to one request. */
export interface RequestInfo {
  requestId: string;
  clientIp: string;
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
  /** A document request, not a client-side navigation's `.data` fetch: member HTML travels in its markup (ADR 0029). */
  document: boolean;
  logger: Logger;
}

export interface Viewer {
  id: string;
  name: string;
  email: string;
  handle: string;
  role: MemberRole;
  /** The base name of their picture (ADR 0072), for the header; null shows their initials. */
  avatar: string | null;
}

/** The signed-in member's rank and the rank they were last shown, as the session read them (ADR 0022, 0027). */
export interface ViewerRank {
  rank: string;
  seenRank: string | null;
}

export const servicesContext = createContext<AppServices>();
export const viewerRankContext = createContext<ViewerRank | null>(null);
export const requestContext = createContext<RequestInfo>();
export const viewerContext = createContext<Viewer | null>(null);
/** The signed-in member's unread notifications as the session read them, for the bell (issue 28). */
export const viewerUnreadContext = createContext<number>(0);
