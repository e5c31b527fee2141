// Manual review (docs/console-api.md): the review service shared by the console and the
// tenant API, review claims, the review queue, session search and the tenant blacklist.
export { registerReviewApiRoutes } from './review-api.routes.ts';
export { registerReviewConsoleRoutes } from './review-console.routes.ts';
export { confirmReview, type ReviewOutcome, type ReviewRequest, submitReview } from './submit-review.ts';
