/** What a visitor sees after an unexpected error; the stack only where it is not production. */
export function ErrorPage({ error, showStack }: { error: unknown; showStack: boolean }) {
  const { message, stack } = describe(error);
  return (
    <main id="main" className="error-page">
      <h1>Unexpected Application Error!</h1>
      <h2 className="error-page__message">{message}</h2>
      {showStack && stack && <pre className="error-page__stack">{stack}</pre>}
    </main>
  );
}

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}
