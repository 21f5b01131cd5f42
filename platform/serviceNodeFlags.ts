/**
 * Node flags every service process runs with: `__proto__` as an accessor is gone, and using it throws, a second line
 * behind the checks of request bodies and SCIM paths against prototype pollution (SPEC-EXTENSIONS §13).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--disable-proto=throw'];
