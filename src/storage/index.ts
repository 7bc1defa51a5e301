export type { ByteRange, FileStat, FileStore } from './file-store';
export { InvalidKeyError } from './file-store';
export { DiskFileStore } from './disk-file-store';
