import { databaseMediaStore } from "../../media/media-store-database";
import { atMostEvery } from "../../mail/outbox-worker";
import { sweepUnattachedPostImages } from "./post-image-service";

/**
 * The outbox worker's job that deletes, once an hour per process, the images uploaded into a box
 * more than a day ago that no post took (ADR 0071). Several instances sweeping at once is harmless:
 * each deletes only what is still untaken, and says so.
 */
export const postImageSweepJob = () =>
  atMostEvery(60 * 60 * 1000, (db, now, services) => sweepUnattachedPostImages({ db, media: services?.media ?? databaseMediaStore(db) }, now));
