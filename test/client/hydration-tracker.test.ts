import { describe, expect, it } from 'vitest';
import { HydrationTracker, type Section } from '../../client/hydration.tsx';

/** Whether the promise has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve));
  return done;
}

const section = (): Section => ({ hydrated: false });

describe('the hydration tracker', () => {
  it('waits for the page around the sections to commit', async () => {
    const tracker = new HydrationTracker();
    const hydrated = tracker.whenHydrated();
    expect(await settled(hydrated)).toBe(false);
    tracker.shellCommitted();
    expect(await settled(hydrated)).toBe(true);
  });

  it('then waits for every section still waiting to hydrate', async () => {
    const tracker = new HydrationTracker();
    const [hero, footer] = [section(), section()];
    tracker.wait(hero);
    tracker.wait(footer);
    tracker.shellCommitted();
    const hydrated = tracker.whenHydrated();
    tracker.hydrated(hero);
    expect(await settled(hydrated)).toBe(false);
    tracker.hydrated(footer);
    expect(await settled(hydrated)).toBe(true);
  });

  it('does not wait for a section rendered in the browser, whose content commits first', async () => {
    const tracker = new HydrationTracker();
    const footer = section();
    tracker.hydrated(footer);
    tracker.wait(footer);
    tracker.shellCommitted();
    expect(await settled(tracker.whenHydrated())).toBe(true);
  });

  it('stops waiting for a section that unmounts before it hydrates', async () => {
    const tracker = new HydrationTracker();
    const stopWaiting = tracker.wait(section());
    tracker.shellCommitted();
    const hydrated = tracker.whenHydrated();
    expect(await settled(hydrated)).toBe(false);
    stopWaiting();
    expect(await settled(hydrated)).toBe(true);
  });

  it('keeps waiting for a section whose effect React runs twice in development', async () => {
    const tracker = new HydrationTracker();
    const hero = section();
    tracker.wait(hero)(); // StrictMode's extra unmount
    tracker.wait(hero);
    tracker.shellCommitted();
    const hydrated = tracker.whenHydrated();
    expect(await settled(hydrated)).toBe(false);
    tracker.hydrated(hero);
    expect(await settled(hydrated)).toBe(true);
  });
});
