export type { AppendOptions, ByteRange, FileStat, FileStore } from './file-store';
export { InvalidKeyError, SizeMismatchError } from './file-store';
export { DiskFileStore } from './disk-file-store';
