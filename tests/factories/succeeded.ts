import type { Outcome } from "~/.server/domain/outcome";

/** A factory's domain call must succeed: a refusal is a broken test set-up, named with its errors. */
export function succeeded<T>(what: string, outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`factory: ${what} was refused with ${outcome.status} ${JSON.stringify(outcome.errors)}`);
  return outcome.value;
}
