import type { Migration } from "kysely/migration";
import * as initial from "./2026-11-21-0001-initial";
import * as newsletter from "./2026-11-21-0002-newsletter";
import * as rateLimit from "./2026-11-21-0003-rate-limit";
import * as forum from "./2026-11-21-0004-forum";
import * as council from "./2026-11-21-0005-council";
import * as postExcerpts from "./2026-11-22-0001-post-excerpts";
import * as dropSignInFailure from "./2026-11-22-0003-drop-sign-in-failure";
import * as moderationEveryKind from "./2026-11-22-0004-moderation-every-kind";
import * as renderedBodies from "./2026-11-22-0005-rendered-bodies";
import * as memberTimeZone from "./2026-11-22-0006-member-time-zone";
import * as media from "./2026-11-22-0007-media";
import * as mailOutbox from "./2026-11-22-0008-mail-outbox";
import * as challenges from "./2026-11-22-0030-challenges";
import * as events from "./2026-11-22-0050-events";
import * as memberStanding from "./2026-11-22-0100-member-standing";
import * as replyHours from "./2026-11-22-0110-reply-hours";
import * as renderedEverywhere from "./2026-11-22-0111-rendered-everywhere";
import * as keysetIndexes from "./2026-11-22-0120-keyset-indexes";
import * as rateLimitHitTime from "./2026-11-23-0121-rate-limit-hit-time";
import * as creationTypeCounts from "./2026-11-24-0130-creation-type-counts";
import * as creationMediaIndexes from "./2026-11-26-0140-creation-media-indexes";
import * as trustedDevices from "./2026-11-26-0150-trusted-devices";
import * as notifications from "./2026-11-28-0160-notifications";
import * as search from "./2026-11-28-0170-search";
import * as bookmarks from "./2026-11-28-0180-bookmarks";
import * as reactions from "./2026-12-04-0190-reactions";
import * as flags from "./2026-12-04-0200-flags";
import * as silence from "./2026-12-04-0210-silence";
import * as blocks from "./2026-12-04-0220-blocks";
import * as reviewWarnDelete from "./2026-12-05-0230-review-warn-delete";
import * as postRevisions from "./2026-12-05-0240-post-revisions";
import * as searchSpeed from "./2026-12-05-0250-search-speed";
import * as replyTo from "./2026-12-05-0260-reply-to";
import * as drafts from "./2026-12-05-0270-drafts";
import * as postImages from "./2026-12-05-0280-post-images";
import * as avatars from "./2026-12-05-0290-avatars";
import * as searchPairs from "./2026-12-05-0300-search-pairs";

/** Every migration in order. Listed by hand so the server bundle and the CLI see the same history. */
export const migrations: Record<string, Migration> = {
  "2026-11-21-0001-initial": initial,
  "2026-11-21-0002-newsletter": newsletter,
  "2026-11-21-0003-rate-limit": rateLimit,
  "2026-11-21-0004-forum": forum,
  "2026-11-21-0005-council": council,
  "2026-11-22-0001-post-excerpts": postExcerpts,
  "2026-11-22-0003-drop-sign-in-failure": dropSignInFailure,
  "2026-11-22-0004-moderation-every-kind": moderationEveryKind,
  "2026-11-22-0005-rendered-bodies": renderedBodies,
  "2026-11-22-0006-member-time-zone": memberTimeZone,
  "2026-11-22-0007-media": media,
  "2026-11-22-0008-mail-outbox": mailOutbox,
  "2026-11-22-0030-challenges": challenges,
  "2026-11-22-0050-events": events,
  "2026-11-22-0100-member-standing": memberStanding,
  "2026-11-22-0110-reply-hours": replyHours,
  "2026-11-22-0111-rendered-everywhere": renderedEverywhere,
  "2026-11-22-0120-keyset-indexes": keysetIndexes,
  "2026-11-23-0121-rate-limit-hit-time": rateLimitHitTime,
  "2026-11-24-0130-creation-type-counts": creationTypeCounts,
  "2026-11-26-0140-creation-media-indexes": creationMediaIndexes,
  "2026-11-26-0150-trusted-devices": trustedDevices,
  "2026-11-28-0160-notifications": notifications,
  "2026-11-28-0170-search": search,
  "2026-11-28-0180-bookmarks": bookmarks,
  "2026-12-04-0190-reactions": reactions,
  "2026-12-04-0200-flags": flags,
  "2026-12-04-0210-silence": silence,
  "2026-12-04-0220-blocks": blocks,
  "2026-12-05-0230-review-warn-delete": reviewWarnDelete,
  "2026-12-05-0240-post-revisions": postRevisions,
  "2026-12-05-0250-search-speed": searchSpeed,
  "2026-12-05-0260-reply-to": replyTo,
  "2026-12-05-0270-drafts": drafts,
  "2026-12-05-0280-post-images": postImages,
  "2026-12-05-0290-avatars": avatars,
  "2026-12-05-0300-search-pairs": searchPairs,
};
