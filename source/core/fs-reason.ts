/**
 * What a failed file-system call means, in words a user can act on, with the errno after it:
 * `the file system is read-only (EROFS)`. Unknown codes are given as they are.
 */
const REASONS: Record<string, string> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return (error as Error | undefined)?.message?.split('\n')[0] ?? String(error);
  const reason = REASONS[code];
  return reason ? `${reason} (${code})` : code;
}

/** The error code a failed write gets: a full disk is `disk_full` (507 on a server), anything else the caller's. */
export function fsFault(error: unknown): 'disk_full' | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' ? 'disk_full' : undefined;
}
