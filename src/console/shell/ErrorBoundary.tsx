/** Catches a render error below it and shows the message with a reload button — never a blank page. */
import { Component, type ReactNode } from 'react';
import { Alert, Button, Container } from '@mantine/core';

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
      <Container py="xl">
        <Alert color="red" title="Something went wrong" role="alert">
          {this.state.error.message}
          <Button mt="sm" variant="light" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Alert>
      </Container>
    );
  }
}
