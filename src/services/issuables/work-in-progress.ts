/** GitLab 8.12's `MergeRequest::WIP_REGEX`: a title marked `WIP:`, `[WIP]` or `WIP ` (any case, repeated) at its start. */
const WIP = /^\s*(\[WIP\]\s*|WIP:\s*|WIP\s+)+\s*/i;

export const isWorkInProgress = (title: string): boolean => WIP.test(title);

/** The title without its WIP marks (8.12's `wipless_title`). */
export const wiplessTitle = (title: string): string => title.replace(WIP, '');
