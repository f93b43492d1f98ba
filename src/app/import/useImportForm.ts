/** The import form's values for one project, loaded from and saved to its memory (importFormMemory.ts). */
import { useEffect, useState } from 'react';
import { browserStorage, loadImportForm, saveImportForm, type ImportFormValues } from './importFormMemory';

export function useImportForm(projectId: string, sampleFps: number) {
  const [values, setValues] = useState<ImportFormValues>(() => loadImportForm(browserStorage(), projectId, sampleFps));
  useEffect(() => saveImportForm(browserStorage(), projectId, values), [projectId, values]);
  const setter =
    <K extends keyof ImportFormValues>(key: K) =>
    (value: ImportFormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  return {
    ...values,
    setVerb: setter('verb'),
    setNoun: setter('noun'),
    setActionable: setter('actionable'),
    setTransformed: setter('transformed'),
    setFps: setter('fps'),
  };
}
