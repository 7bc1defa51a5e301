import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const ALPHABET = `${ALPHANUMERIC}-_`;

/**
 * A random token of `length` URL-safe characters (GitLab's private tokens are 20).
 * It never starts with `-` or `_`: a token starting with a dash reads as an option on a
 * command line (`forge runner --registration-token -x…` failed in CI that way).
 */
export function randomToken(length = 20): string {
  const bytes = crypto.randomBytes(length);
  let token = '';
  for (const [index, byte] of bytes.entries()) {
    const alphabet = index === 0 ? ALPHANUMERIC : ALPHABET;
    token += alphabet[byte % alphabet.length];
  }
  return token;
}

/** Lower-case hex, as GitLab's runner and trigger tokens are. */
export const randomHex = (length = 30): string =>
  crypto
    .randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);

/** The look-up digest of a token: a copy of the database alone does not reveal tokens. */
export const digestToken = (token: string): string => crypto.hash('sha256', token, 'hex');

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

// scrypt with N=2^15 and r=8 uses 32 MiB per hash: memory-hard, about 60 ms here.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/**
 * Seals secrets the API must show again (a user's private token, runner tokens)
 * with a key kept under DATA_DIR, outside the database.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static open(dataDir: string): SecretBox {
    const file = path.join(dataDir, 'secret.key');
    fs.mkdirSync(dataDir, { recursive: true });
    if (!fs.existsSync(file)) {
      // Written whole under another name, then linked into place: a process starting at the same
      // moment finds either no key or the whole key, never an empty file, and one key wins.
      const scratch = `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(scratch, crypto.randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
      try {
        fs.linkSync(scratch, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        fs.rmSync(scratch, { force: true });
      }
    }
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64')).join('.');
  }

  /**
   * A signature of `data` (base64url HMAC-SHA256) under a key derived from this box's key for
   * `purpose` alone, so that what is signed for one use (LFS tokens) means nothing to another.
   */
  sign(purpose: string, data: string): string {
    const key = crypto.createHmac('sha256', this.key).update(`forge-signature:${purpose}`).digest();
    return crypto.createHmac('sha256', key).update(data).digest('base64url');
  }

  /** The value, or undefined when it cannot be opened: sealed under another key (a data directory restored without its secrets file) or damaged. */
  tryUnseal(value: string): string | undefined {
    try {
      return this.unseal(value);
    } catch {
      return undefined;
    }
  }

  unseal(value: string): string {
    const [iv, tag, sealed] = value.split('.').map((part) => Buffer.from(part, 'base64'));
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  }
}
