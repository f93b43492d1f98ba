/**
 * A button that opens the browser's file picker. The input itself stays hidden; the button is a
 * real <button>, so Tab reaches it and Enter or Space opens the picker (a label wrapped around a
 * hidden input, as before, was skipped by the keyboard altogether).
 */
import { useRef } from 'react';

interface Props {
  label: string;
  testId: string;
  accept?: string;
  directory?: boolean;
  multiple?: boolean;
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

export function FilePick(props: Props) {
  const input = useRef<HTMLInputElement>(null);
  const extra = props.directory ? { webkitdirectory: '', directory: '' } : {};
  return (
    <>
      <button type="button" className="rounded bg-sky-800 px-3 py-1.5 text-sm hover:bg-sky-700 disabled:opacity-50" disabled={props.disabled} onClick={() => input.current?.click()}>
        {props.label}
      </button>
      <input
        ref={input}
        type="file"
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={props.testId}
        accept={props.accept}
        multiple={props.multiple ?? props.directory}
        disabled={props.disabled}
        {...extra}
        onChange={(e) => {
          // Copy before clearing: the same file can then be picked again after a failed import.
          const files = Array.from(e.target.files ?? []);
          props.onFiles(files);
          e.target.value = '';
        }}
      />
    </>
  );
}
