import { describeLiveAtEdge } from './live-suite.ts';

describeLiveAtEdge('nginx');
