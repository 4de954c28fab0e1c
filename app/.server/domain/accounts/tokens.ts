import { createHash, randomBytes } from "node:crypto";

// The secret in a mailed link or a long-lived cookie, and what a table keeps of it: only its SHA-256,
// so a copy of the database opens no account.

/** 32 random bytes in base64url: 43 characters. */
export const newToken = () => randomBytes(32).toString("base64url");

/**
 * Trusted devices and mailed sign-in links (ADR 0042) keep the hash in hex, pending email changes
 * (ADR 0023) in base64url: each table keeps the encoding its rows were written with, or the links
 * and cookies already out would stop matching.
 */
const sha256 = (token: string, encoding: "hex" | "base64url") => createHash("sha256").update(token).digest(encoding);

export const signInTrustHash = (token: string) => sha256(token, "hex");
export const emailChangeHash = (token: string) => sha256(token, "base64url");
