#ifndef LIFECYCLED_BUILD_INFO_H
#define LIFECYCLED_BUILD_INFO_H
// The revision a build was made from, given to the compiler by the build
// (-Xcc -DLIFECYCLED_REVISION='"<commit>"': scripts/run, the Containerfile);
// "unknown" when it was not. Read through BuildInfo (LifecycleServer/BuildInfo.swift).
#ifndef LIFECYCLED_REVISION
#define LIFECYCLED_REVISION "unknown"
#endif
static inline const char *lifecycled_revision(void) { return LIFECYCLED_REVISION; }
#endif
