/** One ref update of a push: an all-zero old id (`ZERO_OID`) creates the ref, an all-zero new id deletes it. */
export interface RefUpdate {
  oldId: string;
  newId: string;
  ref: string;
}
