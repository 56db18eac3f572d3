"""One module per upstream plugin (pkg/scheduler/framework/plugins/*), under upstream's names."""
