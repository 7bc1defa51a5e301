/** A build's options as stored at creation; a runner cannot decode anything but an object, so anything else is `{}`. */
export function parseOptions(stored: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(stored || '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
