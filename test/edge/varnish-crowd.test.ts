import { describeCrowdAtEdge } from './crowd-suite.ts';

describeCrowdAtEdge('varnish');
