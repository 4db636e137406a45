/** Which build this bundle is, put in by the build (scripts/build-steps.ts). */
declare const BUILD_MODE: 'production' | 'development';
