import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from './pages/ErrorPage.tsx';

interface Props {
  showStack: boolean;
  children: ReactNode;
}

/** Shows the error page for an error thrown while rendering in the browser. */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPage error={this.state.error} showStack={this.props.showStack} />;
    return this.props.children;
  }
}
