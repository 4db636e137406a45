import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring, which places the objects made where earlier ones
 * survived a young collection straight in the old generation.
 *
 * Under a crowd of keep-alive connections it takes the short-lived objects of every answer for
 * long-lived ones: once the write requests and listeners Node makes for each answer have all
 * outlived a young collection (likely while answers wait for their sockets), their sites are
 * tenured, and from then on every answer's objects die in the old generation and keep what they
 * point to alive through young collections too. Full collections then come every few hundred
 * milliseconds and the server stays slower for as long as it runs: at 1,000 connections about
 * half of the processes fell into it, at two thirds of the others' rate (docs/speed.md).
 * Long-lived objects are few and made at start: promotion takes them to the old generation.
 *
 * Node refuses V8 flags in NODE_OPTIONS, and a flag on the command line would be lost by every
 * way of starting the server but one: the server sets it itself, first.
 */
export function tuneGarbageCollector(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
