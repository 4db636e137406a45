import { describeLiveAtEdge } from './live-suite.ts';

describeLiveAtEdge('varnish');
