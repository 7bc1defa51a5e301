import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** A fixed date, so that the same files give the same bytes on every run. */
const MTIME = new Date('2016-09-22T00:00:00Z');

/** A zip archive of the given files, stored without compression (the sizes tests upload are the files' own), made by yazl. */
export async function storedZip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name, { compress: false, mtime: MTIME });
  zip.end();
  return buffer(zip.outputStream);
}

/** The entries of a zip archive by name: a file's content as text, a folder's as ''. */
export async function unzipEntries(zip: Buffer): Promise<Record<string, string>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, z) => (error ? reject(error) : resolve(z))),
  );
  const entries: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        entries[entry.fileName] = '';
        return file.readEntry();
      }
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries[entry.fileName] = Buffer.concat(chunks).toString('utf8');
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}
