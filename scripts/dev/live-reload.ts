/**
 * Development only (injected into the bundle by `npm run dev`): reloads the page when the dev
 * loop has rebuilt and restarted the server. Same origin, so the page's CSP allows it.
 */
const changes = new EventSource('/__dev/reload');
changes.addEventListener('reload', () => location.reload());
