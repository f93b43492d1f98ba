/**
 * Raised when mask data from outside the app (COCO RLE JSON, PNG files, stored layers) is malformed.
 *
 * It is a separate class so importers can tell "this file is bad, tell the user" apart from
 * programming errors (RangeError/TypeError from our own calls). The message always reads
 * "<file>: <problem>" when a file name is known, matching io/importError.ts, so the UI can show it as is.
 */
export class MaskFormatError extends Error {
  /** The file the data came from, when known. */
  readonly fileName: string | undefined;
  /** The problem alone, without the file name. */
  readonly problem: string;

  constructor(problem: string, fileName?: string) {
    super(fileName === undefined ? problem : `${fileName}: ${problem}`);
    this.name = 'MaskFormatError';
    this.fileName = fileName;
    this.problem = problem;
  }
}
