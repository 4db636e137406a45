import { boot } from './boot.tsx';

boot();
