import { describeCrowdAtEdge } from './crowd-suite.ts';

describeCrowdAtEdge('nginx');
