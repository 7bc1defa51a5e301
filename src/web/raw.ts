import type { RawBlob } from '../services/repository/reads';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};

/**
 * The headers of a file's raw bytes, served from the site's own origin: text is always
 * `text/plain` (never HTML a browser would run), images their own type, anything else a download;
 * no sniffing, and a sandbox so that even an SVG opened on its own runs no script.
 */
export function rawHeaders(path: string, blob: RawBlob): Record<string, string> {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  const image = IMAGE_TYPES[extension];
  const text = blob.contentType.startsWith('text/plain');
  const headers: Record<string, string> = {
    'content-type': image ?? blob.contentType,
    'content-length': String(blob.size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'cache-control': 'private, no-cache',
  };
  if (!image && !text)
    headers['content-disposition'] =
      `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
  return headers;
}
