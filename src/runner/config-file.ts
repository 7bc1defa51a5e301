import fs from 'node:fs';
import path from 'node:path';

/*
 * The runner's registration, kept between starts: the server's URL and the runner's id and token.
 * The token is a credential: the file is written readable by its owner only, atomically (a
 * temporary file renamed over it), so a crash never leaves half a file.
 */

export interface Registration {
  url: string;
  id: number;
  token: string;
}

export function readRegistration(file: string): Registration | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<Registration>;
  if (typeof parsed.url !== 'string' || typeof parsed.token !== 'string' || typeof parsed.id !== 'number') {
    throw new Error(`${file} does not hold a runner registration (url, id, token)`);
  }
  return { url: parsed.url, id: parsed.id, token: parsed.token };
}

export function writeRegistration(file: string, registration: Registration): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(registration, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // openSync's mode is reduced by the umask and ignored for a file left over: set it outright.
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}
