/** Timestamps are stored and shown as ISO 8601 UTC with milliseconds and `Z`. */
export const now = (): string => new Date().toISOString();
