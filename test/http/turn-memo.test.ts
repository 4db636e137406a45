import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TurnMemo } from '../../server/http/turn-memo.ts';

describe('values shared within one turn of the event loop', () => {
  it('makes a value once per key in a turn, and anew in the next turn', async () => {
    const memo = new TurnMemo<number>();
    let made = 0;
    const make = () => Promise.resolve((made += 1));
    const first = memo.get('/|en', make);
    expect(memo.get('/|en', make)).toBe(first);
    expect(memo.get('/|de', make)).not.toBe(first);
    expect(made).toBe(2);
    await nextTurn();
    expect(memo.get('/|en', make)).not.toBe(first);
    expect(made).toBe(3);
  });

  it('hands the value itself to those who come once it is made, still in the same turn', async () => {
    const memo = new TurnMemo<string>();
    const entry = memo.get('/', () => Promise.resolve('page'));
    expect(entry.settled).toBe(false);
    await entry.promise;
    const again = memo.get('/', () => Promise.resolve('another page'));
    expect(again).toBe(entry);
    expect(again).toMatchObject({ settled: true, value: 'page' });
  });

  it('keeps no failure: the next caller of the same turn tries again', async () => {
    const memo = new TurnMemo<string>();
    const failed = memo.get('/', () => Promise.reject(new Error('no data')));
    await expect(failed.promise).rejects.toThrow('no data');
    const retried = memo.get('/', () => Promise.resolve('page'));
    expect(retried).not.toBe(failed);
    await expect(retried.promise).resolves.toBe('page');
  });
});
