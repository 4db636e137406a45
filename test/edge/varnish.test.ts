import { describeEdge } from './edge-suite.ts';
import { describeLiveAtEdge } from './live-suite.ts';
import { describePhotosAtEdge } from './photos-suite.ts';

describeEdge('varnish');
describeLiveAtEdge('varnish');
describePhotosAtEdge('varnish');
