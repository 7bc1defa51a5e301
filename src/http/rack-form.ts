/**
 * An urlencoded form read as Rack reads it where order matters: `name[][key]=value` pairs build a list
 * of hashes, a new hash starting when the last one already has that key (python-gitlab and curl send
 * a commit's `actions[][action]=…&actions[][file_path]=…` so). Other keys as before: a repeated key is
 * a list of its values.
 */
const LIST_OF_HASHES = /^([^[\]]+)\[\]\[([^[\]]+)\]$/;

export function parseRackForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(body)) {
    const listed = LIST_OF_HASHES.exec(key);
    if (listed) {
      const [, name, field] = listed;
      const existing = result[name];
      const list = (Array.isArray(existing) ? existing : (result[name] = [])) as Array<Record<string, unknown>>;
      const last = list[list.length - 1];
      if (last === undefined || typeof last !== 'object' || field in last) list.push({ [field]: value });
      else last[field] = value;
      continue;
    }
    const previous = result[key];
    result[key] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
  }
  return result;
}
