import fs from 'node:fs';
import path from 'node:path';
// ssh2 is CommonJS: its named exports are not visible to ES modules.
import ssh2 from 'ssh2';

/**
 * The server's host key, made on first start and kept under DATA_DIR (mode 0600), so that clients
 * that trusted it once keep trusting it. Ed25519: small, fast, and accepted by every OpenSSH
 * since 6.5.
 */
export function hostKey(dataDir: string): string {
  const file = path.join(dataDir, 'ssh_host_ed25519_key');
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = ssh2.utils.generateKeyPairSync('ed25519').private;
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
