import { describeEdge } from './edge-suite.ts';

describeEdge('varnish');
