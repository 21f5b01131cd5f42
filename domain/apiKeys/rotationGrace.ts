/** How long a rotated key keeps working beside its successor, in seconds: the request's default and its bound. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
export const MAX_ROTATION_GRACE_SECONDS = 2_592_000;
