import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home/home.tsx"),
  route("forge", "routes/forge/forge.tsx"),
  route("forge/:creationId", "routes/forge/creation.tsx"),
  route("council", "routes/council/council.tsx"),
  route("council/ask", "routes/council/ask.tsx"),
  route("council/:questionId", "routes/council/question.tsx"),
  route("join", "routes/account/join.tsx"),
  route("signin", "routes/account/sign-in.tsx"),
  route("signout", "routes/account/sign-out.tsx"),
  route("forgot-password", "routes/account/forgot-password.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("dashboard", "routes/account/dashboard.tsx"),
  route("settings", "routes/account/settings.tsx"),
  route("settings/export", "routes/resources/settings-export.tsx"),
  route("settings/email", "routes/resources/email-change-confirm.tsx"),
  route("members/:handle", "routes/members/profile.tsx"),
  route("admin/advisors", "routes/admin/advisors.tsx"),
  route("newsletter", "routes/resources/newsletter.tsx"),
  route("newsletter/confirm", "routes/resources/newsletter-confirm.tsx"),
  route("newsletter/unsubscribe", "routes/resources/newsletter-unsubscribe.tsx"),
  route("ranks", "routes/pages/ranks.tsx"),
  route("events", "routes/pages/events.tsx"),
  // Pages written in content/<path>.md, all shown by one module (ADR 0019).
  ...["manifesto", "faq", "terms", "privacy", "code-of-conduct"].map((path) =>
    route(path, "routes/pages/content-page.tsx", { id: `content/${path}` }),
  ),
  // The Monastery and the Battlefield share these modules; any other :section is a 404. Static
  // routes above always win over these dynamic ones.
  route(":section", "routes/forum/section.tsx"),
  route(":section/new", "routes/forum/new-topic.tsx"),
  route(":section/:topicId", "routes/forum/topic.tsx"),
  route(":section/:topicId/new", "routes/forum/new-discussion.tsx"),
  route(":section/:topicId/:discussionRef", "routes/forum/discussion.tsx"),
  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
