import { describePhotosAtEdge } from './photos-suite.ts';

describePhotosAtEdge('varnish');
