// An answer with an HTTP status and a message safe to show a client: never a stack, a query or a
// database detail (http.ts logs those and answers with the code alone).
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfter?: number) { super(message); }
}
