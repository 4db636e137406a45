import { describeEdge } from './edge-suite.ts';
import { describeLiveAtEdge } from './live-suite.ts';

describeEdge('nginx');
describeLiveAtEdge('nginx');
