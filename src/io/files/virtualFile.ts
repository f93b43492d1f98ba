/**
 * A file with its path inside whatever the user gave us (a picked folder, a dropped folder, a zip).
 * Import code works on these so that folder and zip inputs share one code path.
 */
export interface VirtualFile {
  /** Forward-slash path relative to the picked root, e.g. "chopping_avocado/JPEGImages_1fps/v1/frame0001.jpg". */
  path: string;
  blob: Blob;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function stem(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

export function extension(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** OS clutter that must never count as content (macOS resource forks, Finder and Explorer files). */
export function isJunkPath(path: string): boolean {
  return path.split('/').some((part) => part === '__MACOSX' || part.startsWith('.') || part === 'Thumbs.db' || part === 'desktop.ini');
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural order: frame2 before frame10, as every frame folder expects. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Files from an <input webkitdirectory> or a multi-select keep their relative path. */
export function fromFileList(files: ArrayLike<File>): VirtualFile[] {
  const out: VirtualFile[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
    out.push({ path: normalisePath(rel || f.name), blob: f });
  }
  return out;
}

/** Backslashes to slashes, no leading "./" or "/", no empty or "." segments. ".." is refused by callers. */
export function normalisePath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}
