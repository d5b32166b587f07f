/** Facts about a file. */
export interface FileStat {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode?: number;
}

/** A directory entry. */
export interface DirEntry {
  readonly name: string;
  readonly type: FileStat['type'];
}

/**
 * A file-system backend that paths can be mounted onto (for example context files served
 * from a database). Paths are POSIX, relative to the mount point.
 */
export interface FileSystem {
  readonly kind: string;
  readFile(path: string, signal?: AbortSignal): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array, signal?: AbortSignal): Promise<void>;
  /** Undefined when the path does not exist. */
  stat(path: string): Promise<FileStat | undefined>;
  readdir(path: string): Promise<readonly DirEntry[]>;
  remove(path: string): Promise<void>;
}
