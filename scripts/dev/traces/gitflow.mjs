export const episodes = [];
