// A third scope: lessons recorded here are scoped to packages/api/**.
export const routes = ['/health', '/users'] as const;
