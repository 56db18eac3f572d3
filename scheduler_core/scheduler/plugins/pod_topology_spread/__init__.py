"""PodTopologySpread as upstream lays it out (pkg/scheduler/framework/plugins/podtopologyspread):
the plugin, its filtering and scoring states, what both read (common), the domain counts."""
