import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Archive, RawBlob } from '../../services/repository/reads';

/** The response schema of raw bytes: a file, a blob or an archive. */
export const RawBytes = {
  200: {
    description: 'the raw bytes',
    content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } },
  },
};

/**
 * Serves file bytes as GitLab's workhorse did: inline, typed by content. `nosniff` keeps a browser
 * from running an HTML file of a repository as a page of this site.
 */
export function sendRaw(reply: FastifyReply, blob: RawBlob) {
  return reply
    .type(blob.contentType)
    .header('Content-Length', String(blob.size))
    .header('Content-Disposition', 'inline')
    .header('X-Content-Type-Options', 'nosniff')
    .send(blob.body);
}

/** `attachment; filename="…"`, with an RFC 5987 form when the name is not plain ASCII. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === fileName
    ? `attachment; filename="${fileName}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** An archive as a download. */
export function sendArchive(reply: FastifyReply, archive: Archive) {
  return reply
    .type(archive.contentType)
    .header('Content-Disposition', attachment(archive.fileName))
    .header('Content-Transfer-Encoding', 'binary')
    .header('Cache-Control', 'private')
    .send(archive.stream);
}
