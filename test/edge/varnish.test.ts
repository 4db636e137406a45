import { describeEdge } from './edge-suite.ts';
import { describeLiveAtEdge } from './live-suite.ts';

describeEdge('varnish');
describeLiveAtEdge('varnish');
