/**
 * Catches a render error below it and shows the message with a reload button — never a blank page. Plain
 * HTML (shell/plain.css): it sits above every layout, where no Mantine provider exists.
 */
import { Component, type ReactNode } from 'react';
import i18n from '../i18n';

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown) {
    console.error('console render error', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="ui-page__main">
        <div className="ui-alert ui-stack" role="alert">
          <strong className="ui-alert__title">{i18n.t('app.renderError')}</strong>
          <span>{this.state.error.message}</span>
          <div>
            <button
              type="button"
              className="ui-button ui-button--light"
              onClick={() => window.location.reload()}
            >
              {i18n.t('app.reload')}
            </button>
          </div>
        </div>
      </div>
    );
  }
}
