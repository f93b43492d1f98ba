import { Component, type ReactNode } from 'react';

/** A view that fails to load says why (e.g. a database from a newer app version) instead of going blank. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (this.state.error) {
      return (
        <div role="alert" className="m-6 rounded border border-red-700 bg-red-950 p-4 text-sm">
          <p className="font-semibold">This view could not be shown.</p>
          <p className="mt-1 whitespace-pre-wrap">{this.state.error.message}</p>
          <a className="mt-3 inline-block underline" href="#/">
            Back to projects
          </a>
        </div>
      );
    }
    return this.props.children;
  }
}
