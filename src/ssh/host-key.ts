import fs from 'node:fs';
import path from 'node:path';
// ssh2 is CommonJS: its named exports are not visible to ES modules.
import ssh2 from 'ssh2';

/** How many keys to make before giving up: one in a few hundred of ssh2's is unusable (below). */
const ATTEMPTS = 50;

/**
 * The server's host key, made on first start and kept under DATA_DIR (mode 0600), so that clients
 * that trusted it once keep trusting it. Ed25519: small, fast, and accepted by every OpenSSH
 * since 6.5. A stored key that does not parse never worked (the SSH server could not start with
 * it), so it is replaced.
 */
export function hostKey(dataDir: string): string {
  const file = path.join(dataDir, 'ssh_host_ed25519_key');
  try {
    const stored = fs.readFileSync(file, 'utf8');
    if (usable(stored)) return stored;
    fs.rmSync(file, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = newKey();
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // `wx`: a second process starting at the same moment keeps the first one's key.
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8');
  }
}

const usable = (key: string): boolean => !(ssh2.utils.parseKey(key) instanceof Error);

/**
 * ssh2's `generateKeyPairSync('ed25519')` drops a leading zero byte of the public key about once
 * in 250 keys, writing a key it then refuses ("Malformed OpenSSH private key"): CI met one. Such a
 * key is thrown away and another made.
 */
function newKey(): string {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const key = ssh2.utils.generateKeyPairSync('ed25519').private;
    if (usable(key)) return key;
  }
  throw new Error(`could not make a usable SSH host key in ${ATTEMPTS} tries`);
}
