print("lifecycled is coming")
