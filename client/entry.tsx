/**
 * The browser entry is kept tiny: the first frame is painted from the server's HTML
 * alone, and only then is the app fetched and started, so nothing of it delays that paint.
 */
requestAnimationFrame(() =>
  setTimeout(() => {
    void import('./boot.tsx').then(({ boot }) => boot());
  }),
);
