import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import ssh2 from 'ssh2';
import { hostKey } from '../../src/ssh/host-key';

// One of ssh2's own ed25519 keys that it cannot parse back (its public key lost a leading zero
// byte): CI's SSH server once failed to start on such a key.
const MALFORMED = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMgAAAAtz
c2gtZWQyNTUxOQAAAB8cQvuangit/+9yM/UcGXYAAB6YuT428EkUFvdI21p8AAAA
iEJwSRpCcEkaAAAAC3NzaC1lZDI1NTE5AAAAHxxC+5qeCK3/73Iz9RwZdgAAHpi5
PjbwSRQW90jbWnwAAAA/whMvN3v9QjLFuQeJ4Ky0zBqTCEPln4a7tE5fuVuqIhsc
Qvuangit/+9yM/UcGXYAAB6YuT428EkUFvdI21p8AAAAAAECAwQFBgc=
-----END OPENSSH PRIVATE KEY-----
`;

const parses = (key: string) => !(ssh2.utils.parseKey(key) instanceof Error);

test('a stored host key that does not parse is replaced by a usable one, kept from then on', () => {
  assert.equal(parses(MALFORMED), false);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-host-key-'));
  try {
    fs.writeFileSync(path.join(dir, 'ssh_host_ed25519_key'), MALFORMED, { mode: 0o600 });
    const key = hostKey(dir);
    assert.ok(parses(key));
    assert.notEqual(key, MALFORMED);
    assert.equal(hostKey(dir), key);
    assert.equal(fs.statSync(path.join(dir, 'ssh_host_ed25519_key')).mode & 0o777, 0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every new host key parses (ssh2 makes an unusable one about once in 250)', () => {
  for (let round = 0; round < 300; round++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-host-key-'));
    try {
      assert.ok(parses(hostKey(dir)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});
