import { describeEdge } from './edge-suite.ts';
import { describeLiveAtEdge } from './live-suite.ts';
import { describePhotosAtEdge } from './photos-suite.ts';

describeEdge('nginx');
describeLiveAtEdge('nginx');
describePhotosAtEdge('nginx');
